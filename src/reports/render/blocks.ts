/** The building blocks of the human-readable report (document.ts), shared by its section builders. */

export interface Row {
  readonly cells: readonly string[];
  /** A total line, shown bold. */
  readonly strong: boolean;
}

export interface Table {
  readonly caption: string;
  readonly head: readonly string[];
  /** Right-aligned columns. */
  readonly numeric: readonly boolean[];
  readonly rows: readonly Row[];
}

export type ChartName = 'progress' | 'latency' | 'workers';

export type Block =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'table'; readonly table: Table }
  | { readonly kind: 'chart'; readonly chart: ChartName };

export interface Section {
  /** For anchors (html ids). */
  readonly id: string;
  readonly title: string;
  readonly blocks: readonly Block[];
  readonly subsections: readonly Section[];
}
