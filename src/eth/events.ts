import { encodeAbiParameters, toEventSelector, type Abi, type AbiEvent, type Hex } from 'viem'

/** The event `name` of `abi`; throws when the ABI has none (a name mistyped in code, not input). */
export function eventOf(abi: Abi, name: string): AbiEvent {
  const event = abi.find((item): item is AbiEvent => item.type === 'event' && item.name === name)
  if (!event) throw new Error(`the ABI has no event ${name}`)
  return event
}

/** The topic0 of the event `name` of `abi`. */
export const eventSelector = (abi: Abi, name: string): Hex => toEventSelector(eventOf(abi, name))

/**
 * The topics of a log of the event `name` with `args` (by parameter name): its selector, then
 * each indexed parameter's word. Value types only, as the contracts here index them.
 */
export function eventTopics(abi: Abi, name: string, args: Record<string, unknown>): Hex[] {
  const event = eventOf(abi, name)
  const indexed = event.inputs.filter((input) => input.indexed)
  return [toEventSelector(event), ...indexed.map((input) => encodeAbiParameters([input], [args[input.name ?? '']]))]
}
