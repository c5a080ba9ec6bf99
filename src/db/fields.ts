/** The types a required field of a qrelay schema has. */
type FieldType = StringConstructor | NumberConstructor | DateConstructor | BooleanConstructor;

/**
 * Required fields of one type, for spreading into a mongoose schema: most fields of every
 * collection are required strings, dates or counts, and one line per run of them keeps a
 * schema readable as the list of its fields. Spread in document order: mongoose stores
 * the fields in the order the schema names them.
 */
export function required<T extends FieldType, K extends string>(type: T, ...names: K[]): Record<K, { type: T; required: true }> {
  return Object.fromEntries(names.map((name) => [name, { type, required: true as const }])) as Record<K, { type: T; required: true }>;
}
