// The page's stylesheet is imported as text (`with { type: 'text' }`) and served from memory,
// so the compiled binary carries it (the script is built by src/browser/bundle.ts).
declare module '*/page/faucet.css' {
  const text: string
  export default text
}
