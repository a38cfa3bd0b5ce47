/**
 * The CSV dialect of every file the service writes (raw-event exports, report attachments):
 * RFC 4180 lines ending in CRLF; a field holding a lone CR or LF is quoted too (csv-stringify
 * otherwise quotes only fields that contain the record delimiter itself). Cells come from tracked
 * events, so a text cell starting with = + - @, a tab or a CR (or their full-width forms) is
 * prefixed with ' (csv-stringify's escape_formulas): a spreadsheet shows it as text instead of
 * running it as a formula. Numbers are left alone, so -1.5 stays a number.
 */
export const CSV_DIALECT = { record_delimiter: 'windows', quoted_match: /[\r\n]/, escape_formulas: true } as const;
