import { render } from 'preact'
import { LocationProvider, Route, Router } from 'preact-iso'
import { pages } from './pages/index.ts'
import { getJson } from './api.ts'
import { setChainClock } from './format.ts'
import { SearchBox } from './searchBox.tsx'
import './styles.css'

/** Where the faucet's page is: the shell says (the explorer knows the faucet's port, the pages do not). */
const faucetUrl = document.querySelector<HTMLMetaElement>('meta[name="faucet"]')?.content ?? null

function NotFound() {
  return (
    <section class="card">
      <h1>Not found</h1>
      <p>
        There is no page here. <a href="/">Back to the chain</a>.
      </p>
    </section>
  )
}

/** The chain head's time, read once before the first page draws its times (format.ts setChainClock). */
async function readChainClock(): Promise<void> {
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
        <nav aria-label="main">
          {pages
            .filter((page) => page.nav)
            .map((page) => (
              <a key={page.path} href={page.path}>
                {page.nav}
              </a>
            ))}
        </nav>
        <SearchBox />
      </header>
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
