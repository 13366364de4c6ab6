// Style sheets imported for their side effect: Bun bundles them into app.css.
declare module '*.css'
// The Solidity grammar for highlight.js, a CommonJS module without types of its own.
declare module 'highlightjs-solidity/src/languages/solidity.js' {
  import type { LanguageFn } from 'highlight.js'
  const solidity: LanguageFn
  export default solidity
}
