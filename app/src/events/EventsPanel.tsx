/** The live events panel: the site's events as they happen. */
export function EventsPanel() {
  return (
    <section aria-labelledby="events-title">
      <h1 id="events-title">Live events</h1>
    </section>
  )
}
