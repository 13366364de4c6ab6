// The spool worker's entry, at the composition root: the spool's writer (src/spool/writer.ts)
// knows no service, so this file builds the derived streams from the config startSpool posts
// (see spoolWiring in streams.ts) and hands them to it.
import type { Config } from './config/load.ts'
import { serveSpoolWriter } from './spool/writer.ts'
import { createStreams } from './streams.ts'

serveSpoolWriter((config) => createStreams(config as Config))
