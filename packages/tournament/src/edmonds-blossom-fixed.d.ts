/**
 * Types of the matching library (MIT, a port of Joris van Rantwijk's maximum weighted matching):
 * `edges` are `[i, j, weight]` with vertices numbered from 0; the answer gives each vertex up to
 * the largest one named its mate, or -1. `maxCardinality`: among the matchings of most edges,
 * the heaviest.
 */
declare module 'edmonds-blossom-fixed' {
  function blossom(edges: readonly (readonly [number, number, number])[], maxCardinality?: boolean): number[];
  export default blossom;
}
