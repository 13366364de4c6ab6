import { Elysia } from 'elysia'
import { NotFoundError } from '../../errors.ts'

/** Spec 03 "/name/{name}": labels of 3 to 32 characters. */
export const LABEL_MIN = 3
export const LABEL_MAX = 32

/** The label of a name: one trailing suffix (".stack", ".eth") stripped. Null when out of range. */
export function nameLabel(name: string): string | null {
  let text: string
  try {
    text = decodeURIComponent(name).trim().toLowerCase()
  } catch {
    return null
  }
  const label = text.replace(/\.[^.]*$/, '')
  const length = [...label].length
  return length >= LABEL_MIN && length <= LABEL_MAX ? label : null
}

/**
 * Spec 03 "/name/{name}": a lookup read live from the name-service registry contract. This
 * stack's chain has no name service and the config names none, so every lookup answers 404,
 * after the label check the spec puts first (an out-of-range name is a 404 of its own).
 */
export function nameRoutes() {
  return new Elysia({ name: 'explorer-names' }).get('/name/:name', ({ params }) => {
    if (nameLabel(params.name) === null) throw new NotFoundError(`a name must be ${LABEL_MIN} to ${LABEL_MAX} characters`)
    throw new NotFoundError('no name service is configured')
  })
}
