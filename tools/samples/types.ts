/**
 * The hand-written material the sample benchmark is generated from. Every sentence is
 * written so that its relevance to each query of its topic is decidable by reading it;
 * the generator composes passages from these sentences and derives the truth from them.
 */

/** The agents' guideline a hard case turns on (the 7 relevance guidelines the DREAM agents argue by). */
export type Rule = 'scope' | 'key' | 'direct' | 'intent' | 'complete' | 'surface' | 'correctness';

/** A sentence on which a careful reader could go either way; `label` is the truth. */
export interface HardSentence {
  text: string;
  label: 'yes' | 'no';
  rule: Rule;
  /** The best argument that the sentence supports an answer (agent A's side). */
  pro: string;
  /** The best argument that it does not (agent B's side). */
  con: string;
}

export interface QuerySpec {
  text: string;
  answers: string[];
  /** Sentences that state an answer plainly. */
  direct: string[];
  hard: HardSentence[];
  /** Sentences on the query's subject that share its words but answer nothing. */
  near: string[];
}

export interface Topic {
  id: string;
  title: string;
  domain: string;
  /** Sentences about the topic that answer none of its queries. */
  background: string[];
  queries: QuerySpec[];
}
