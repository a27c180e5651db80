import MarkerPins
import MarkerRender
import MarkerQuery

/// What the endpoints that take a route in their body share: the client's allowance, a place in
/// the route queue, the route threads, the drawing and the URLs handed out.
struct RouteWork: Sendable {
    let images: MarkerImages
    /// The threads that draw pins and callouts.
    let pictures: CPUPool<PictureRenderers>
    /// What pins and callouts drew, so a route posted again draws none of them.
    let pictureRecords: PictureRecords
    let metrics: ServiceMetrics
    /// The URLs handed out for icons and sheets, signed where the service has a key.
    let urls: ServiceURLs
    let limiter: ClientLimiter
    /// The route threads, each with a renderer of its own to measure pictures with (drawing is the render pool's).
    let workers: RouteWorkers
    let concurrency: ConcurrencyLimit
    /// The origin URLs start with, e.g. `https://markers.example.com`; nil = paths on this
    /// service (`/v1/icons/…`), which clients resolve against the URL they posted to.
    let publicBaseURL: String?

    /// Runs `work` within the client's allowance for expensive requests (checked first, so that a
    /// flood of one client's routes never fills the queue) and a place in the route queue.
    func expensive<Value>(_ client: IPAddress?, _ work: (ClientLimiter.Permit) async throws -> Value) async throws -> Value {
        try await limiter.expensive(client) { permit in
            try await concurrency.withPlace { try await work(permit) }
        }
    }
}
