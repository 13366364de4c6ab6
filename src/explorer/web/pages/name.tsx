import { useRoute } from 'preact-iso'
import { useApi } from '../api.ts'
import { absolute, units } from '../format.ts'
import { AddressLink, Failure, Fields, Loading, Section } from '../ui.tsx'
import type { NameRecord } from './address.tsx'

export function NamePage() {
  const { params } = useRoute()
  const name = decodeURIComponent(params.name ?? '')
  const { data, error } = useApi<NameRecord>(`/name/${encodeURIComponent(name)}`)
  // Names are paid in the chain's native token (BX): its symbol and decimals are the token list's.
  const tokens = useApi<Array<{ native: boolean; symbol: string | null; decimals: number | null }>>('/tokens')
  const native = tokens.data?.find((token) => token.native) ?? null
  if (error) return <Failure error={error} what="name" />
  if (!data) return <Loading what={`the name ${name}`} />
  return (
    <Section title={data.name} id="name" main>
      <Fields
        rows={[
          ['Status', <span id="name-status">{status(data)}</span>],
          ['Resolves to', data.resolved ? <AddressLink address={data.resolved} full /> : null],
          ['Owner', data.owner ? <AddressLink address={data.owner} full /> : null],
          ['Expires', data.expires ? absolute(data.expires) : null],
          ['Price a year', data.price ? <span id="name-price">{price(data.price, native)}</span> : null],
          ['Website', data.website],
          ['Twitter', data.twitter],
          ['Description', data.description],
        ]}
      />
    </Section>
  )
}

/** The name's standing; unknown while the registry cannot be read (its live fields are null then). */
function status(record: NameRecord): string {
  if (record.available === null || record.reserved === null) return 'Unknown: the chain cannot be read right now'
  return record.reserved ? 'Reserved' : record.available ? 'Available' : 'Registered'
}

/** A price in base units of the native token, in its units once the token list says what they are. */
function price(amount: string, native: { symbol: string | null; decimals: number | null } | null): string {
  if (native?.decimals === null || native?.decimals === undefined) return `${amount} base units of the native token`
  return `${units(amount, native.decimals)} ${native.symbol ?? ''}`.trim()
}
