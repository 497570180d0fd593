import { describe, expect, it } from 'vitest';
import { isTableText, parseTableText, tableCell, tableConvertedNote, tableUpload, TableTextError } from './table';
import { SAMPLE_TABLE, sampleTableText } from './sample';

const text = async (s: ReadableStream<Uint8Array>) => new Response(s).text();

describe('parseTableText', () => {
  it('reads a header row and numbers, text, booleans and empty cells', () => {
    const t = parseTableText('flowers.csv', 'f1,f2,ok,label\n1.5,-2,true,setosa\n3e2,,FALSE,virginica\n');
    expect(t).toEqual({
      columns: ['f1', 'f2', 'ok', 'label'],
      rows: [
        [1.5, -2, true, 'setosa'],
        [300, null, false, 'virginica'],
      ],
    });
  });
  it('reads quoted fields with commas, quotes and line breaks, CRLF and a byte-order mark', () => {
    const t = parseTableText('a.csv', '\ufeffname,note\r\n"Smith, J","said ""hi""\r\nthen left"\r\n');
    expect(t.columns).toEqual(['name', 'note']);
    expect(t.rows).toEqual([['Smith, J', 'said "hi"\r\nthen left']]);
  });
  it('reads a TSV and a semicolon CSV (as Excel writes in many countries)', () => {
    expect(parseTableText('a.tsv', 'a\tb\n1\tx,y\n').rows).toEqual([[1, 'x,y']]);
    expect(parseTableText('a.csv', 'a;b\n1;2\n3;4\n').rows).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });
  it("counts pandas' missing markers as missing and fills short rows", () => {
    expect(parseTableText('a.csv', 'a,b,c\nNA,nan,\n1\n').rows).toEqual([
      [null, null, null],
      [1, null, null],
    ]);
  });
  it('names empty and repeated headers as pandas does', () => {
    expect(parseTableText('a.csv', ',x,x,x\n1,2,3,4\n').columns).toEqual(['Unnamed: 0', 'x', 'x.1', 'x.2']);
  });
  it('refuses what is not a table with a sentence naming the file', () => {
    expect(() => parseTableText('a.csv', 'a,b\n')).toThrow('a.csv has no rows: a header row and at least one row of values are needed');
    expect(() => parseTableText('a.csv', 'a,b\n1,2,3\n')).toThrow('a.csv row 2 has 3 values but the header names 2 columns');
    expect(() => parseTableText('a.csv', 'a,b\n1,"open\n')).toThrow(TableTextError);
    expect(() => parseTableText('a.csv', 'x'.repeat(10 * 1024 * 1024 + 1))).toThrow('a.csv is larger than 10 MB');
  });
  it('keeps text that only looks like a number in part', () => {
    expect(tableCell('1.2.3')).toBe('1.2.3');
    expect(tableCell(' 7 ')).toBe(7);
    expect(tableCell('0x10')).toBe('0x10');
  });
});

describe('tableUpload', () => {
  it('uploads flowers.csv as flowers.json and says so', async () => {
    const { source, note } = tableUpload('flowers.csv', 'a,label\n1,x\n');
    expect(source.name).toBe('flowers.json');
    expect(JSON.parse(await text(source.stream()))).toEqual({ columns: ['a', 'label'], rows: [[1, 'x']] });
    expect(source.size).toBe(JSON.stringify({ columns: ['a', 'label'], rows: [[1, 'x']] }).length);
    expect(note).toBe(tableConvertedNote('flowers.csv'));
    expect(note).toMatch(/^flowers\.csv is uploaded as a JSON table/);
  });
  it('knows which files it converts', () => {
    expect(isTableText('a.CSV')).toBe(true);
    expect(isTableText('a.tsv')).toBe(true);
    expect(isTableText('a.json')).toBe(false);
    expect(isTableText('csv')).toBe(false);
  });
});

describe('the sample table', () => {
  it('has a text label and rows as wide as its header', () => {
    expect(SAMPLE_TABLE.columns.at(-1)).toBe('species');
    expect(SAMPLE_TABLE.rows.every((r) => r.length === SAMPLE_TABLE.columns.length)).toBe(true);
    expect(JSON.parse(sampleTableText())).toEqual(SAMPLE_TABLE);
  });
});
