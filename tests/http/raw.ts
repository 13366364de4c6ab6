// The raw client lives in tests/helpers/rawHttp.ts; src/http/conventions.test.ts still imports it by this path.
export { rawRequest, type RawAnswer } from '../helpers/rawHttp.ts'
