// A CSV or TSV pushed is turned into its JSON table before upload: the parser loads only for such a push.
export { convertTables, TableTextError } from '@portal/core';
