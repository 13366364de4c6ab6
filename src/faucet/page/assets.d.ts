// The page's stylesheet and script are imported as text (`with { type: 'text' }`) and served
// from memory, so the compiled binary carries them.
declare module '*/page/faucet.css' {
  const text: string
  export default text
}
declare module '*/page/faucet.js' {
  const text: string
  export default text
}
