import { useRoute } from 'preact-iso'
import { useApi } from '../api.ts'
import { absolute, ether } from '../format.ts'
import { AddressLink, Failure, Fields, Loading, Section } from '../ui.tsx'
import type { NameRecord } from './address.tsx'

export function NamePage() {
  const { params } = useRoute()
  const name = decodeURIComponent(params.name ?? '')
  const { data, error } = useApi<NameRecord>(`/name/${encodeURIComponent(name)}`)
  if (error) return <Failure error={error} what="name" />
  if (!data) return <Loading what={`the name ${name}`} />
  return (
    <Section title={data.name} id="name" main>
      <Fields
        rows={[
          ['Status', <span id="name-status">{data.reserved ? 'Reserved' : data.available ? 'Available' : 'Registered'}</span>],
          ['Resolves to', data.resolved ? <AddressLink address={data.resolved} full /> : null],
          ['Owner', data.owner ? <AddressLink address={data.owner} full /> : null],
          ['Expires', data.expires ? absolute(data.expires) : null],
          ['Price a year', data.price ? ether(data.price) : null],
          ['Website', data.website],
          ['Twitter', data.twitter],
          ['Description', data.description],
        ]}
      />
    </Section>
  )
}
