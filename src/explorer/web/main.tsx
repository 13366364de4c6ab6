import { render } from 'preact'
import { useEffect } from 'preact/hooks'
import { LocationProvider, Route, Router, useLocation } from 'preact-iso'
import { pages } from './pages/index.ts'
import { getJson } from './api.ts'
import { setChainClock } from './format.ts'
import { currentSection } from './nav.ts'
import { SearchBox } from './searchBox.tsx'
import './styles.css'

/** Where the faucet's page is: the shell says (the explorer knows the faucet's port, the pages do not). */
const faucetUrl = document.querySelector<HTMLMetaElement>('meta[name="faucet"]')?.content ?? null

/** Any path that is not a page (the server answers it 404 with this shell): what there is instead. */
function NotFound() {
  const { path } = useLocation()
  return (
    <section class="card failure-card" id="not-found">
      <h1>No page here</h1>
      <p>
        There is no page at <code class="wrap">{path}</code>. Search above for a transaction, a block, an address or a name, or go on from one of these:
      </p>
      <ul class="ways-on">
        <li>
          <a href="/">The chain at a glance</a>
        </li>
        {navEntries.map((page) => (
          <li key={page.path}>
            <a href={page.path}>{page.nav}</a>
          </li>
        ))}
      </ul>
    </section>
  )
}

const navEntries = pages.filter((page) => page.nav)
const navPaths = navEntries.map((page) => page.path)

const SITE = 'Chain 78270 explorer'

/**
 * Names the browser's tab after the page's h1 (its `data-tab` when it has one: a transaction's
 * short hash, an address's name; an empty one leaves the site's name alone), as the page draws
 * and redraws.
 */
function PageTitle() {
  const { path } = useLocation()
  useEffect(() => {
    const main = document.getElementById('main')
    if (!main) return
    const name = () => {
      const heading = main.querySelector('h1')
      const tab = heading?.dataset.tab ?? heading?.textContent?.replace(/\s+/g, ' ').trim() ?? ''
      const title = tab ? `${tab} · ${SITE}` : SITE
      if (document.title !== title) document.title = title
    }
    name()
    const observer = new MutationObserver(name)
    observer.observe(main, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['data-tab'] })
    return () => observer.disconnect()
  }, [path])
  return null
}

/** The top menu, its entry for the page's section marked. */
function Menu() {
  const { path } = useLocation()
  const current = currentSection(path, navPaths)
  return (
    <nav aria-label="main">
      {navEntries.map((page) => (
        <a key={page.path} href={page.path} aria-current={page.path !== current ? undefined : page.path === path ? 'page' : 'true'}>
          {page.nav}
        </a>
      ))}
    </nav>
  )
}

/**
 * The chain head's time, known before the first page draws its times (format.ts setChainClock):
 * from the shell, which the explorer writes with it, else read from the stats.
 */
async function readChainClock(): Promise<void> {
  const fromShell = Number(document.querySelector<HTMLMetaElement>('meta[name="chain-clock"]')?.content)
  if (fromShell > 0) return setChainClock(fromShell / 1e6)
  try {
    const stats = await getJson<{ miniBlockHeadTimestamp_us?: number | null }>('/stats')
    if (stats.miniBlockHeadTimestamp_us) setChainClock(stats.miniBlockHeadTimestamp_us / 1e6)
  } catch {
    // Without the stats the times are against this machine's clock.
  }
}

function App() {
  return (
    <LocationProvider>
      <a class="skip" href="#main">
        Skip to the content
      </a>
      <header class="top">
        <a class="brand" href="/">
          <span aria-hidden="true">◆</span> Chain 78270
        </a>
        <Menu />
        <SearchBox />
      </header>
      <PageTitle />
      <main id="main">
        <Router>
          {pages.map((page) => (
            <Route key={page.path} path={page.path} component={page.component} />
          ))}
          <Route default component={NotFound} />
        </Router>
      </main>
      <footer class="bottom">
        <span>Read from this stack's own index of the chain.</span>
        {faucetUrl ? <a href={faucetUrl}>Get test funds from the faucet</a> : null}
      </footer>
    </LocationProvider>
  )
}

void readChainClock().then(() => render(<App />, document.getElementById('app')!))
