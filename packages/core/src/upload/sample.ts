// The sample table every drop zone offers ("Use sample data") and the Python example carries inline.
import type { JsonTable } from './table';

/** The uploaded file's name. */
export const SAMPLE_TABLE_NAME = 'sample-flowers.json';

/**
 * Thirty of Fisher's iris flowers (1936): three measurements in cm and the species as a text label, ten of each
 * species. Three inputs fit the Individual plan; only the label is a class, so a fit on it shows what accuracy means.
 */
export const SAMPLE_TABLE: JsonTable = {
  columns: ['sepal_length', 'petal_length', 'petal_width', 'species'],
  rows: [
    [5.1, 1.4, 0.2, 'setosa'],
    [4.9, 1.4, 0.2, 'setosa'],
    [4.7, 1.3, 0.2, 'setosa'],
    [4.6, 1.5, 0.2, 'setosa'],
    [5.0, 1.4, 0.2, 'setosa'],
    [5.4, 1.7, 0.4, 'setosa'],
    [4.6, 1.4, 0.3, 'setosa'],
    [5.0, 1.5, 0.2, 'setosa'],
    [4.4, 1.4, 0.2, 'setosa'],
    [4.9, 1.5, 0.1, 'setosa'],
    [7.0, 4.7, 1.4, 'versicolor'],
    [6.4, 4.5, 1.5, 'versicolor'],
    [6.9, 4.9, 1.5, 'versicolor'],
    [5.5, 4.0, 1.3, 'versicolor'],
    [6.5, 4.6, 1.5, 'versicolor'],
    [5.7, 4.5, 1.3, 'versicolor'],
    [6.3, 4.7, 1.6, 'versicolor'],
    [4.9, 3.3, 1.0, 'versicolor'],
    [6.6, 4.6, 1.3, 'versicolor'],
    [5.2, 3.9, 1.4, 'versicolor'],
    [6.3, 6.0, 2.5, 'virginica'],
    [5.8, 5.1, 1.9, 'virginica'],
    [7.1, 5.9, 2.1, 'virginica'],
    [6.3, 5.6, 1.8, 'virginica'],
    [6.5, 5.8, 2.2, 'virginica'],
    [7.6, 6.6, 2.1, 'virginica'],
    [4.9, 4.5, 1.7, 'virginica'],
    [7.3, 6.3, 1.8, 'virginica'],
    [6.7, 5.8, 1.8, 'virginica'],
    [7.2, 6.1, 2.5, 'virginica'],
  ],
};

/** The sample as the file that is uploaded. */
export const sampleTableText = (): string => JSON.stringify(SAMPLE_TABLE);

/** What every door says of the sample beside its "Use sample data". */
export const SAMPLE_TABLE_NOTE = `The sample is ${SAMPLE_TABLE_NAME}: ${SAMPLE_TABLE.rows.length} flowers, 3 measurements in cm and the species as a text label.`;
