import Foundation
import Sluice
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession {
    /// A publisher that loads the contents of `url` with a data task of this session.
    ///
    /// <!-- snippet: DataTaskPublisherForecast -->
    /// ```swift
    /// // In a @MainActor model: the response arrives on a session thread, the forecast here.
    /// cancellable = URLSession.shared.dataTaskPublisher(for: url)
    ///     .map(\.data)
    ///     .decode(type: Forecast.self, decoder: JSONDecoder())
    ///     .receive(on: .mainActor)
    ///     .sink(receiveCompletion: { [weak self] in self?.completion = $0 },
    ///           receiveValue: { [weak self] in self?.forecast = $0 })
    /// ```
    public func dataTaskPublisher(for url: URL) -> DataTaskPublisher {
        DataTaskPublisher(request: URLRequest(url: url), session: self)
    }

    /// A publisher that performs `request` with a data task of this session.
    public func dataTaskPublisher(for request: URLRequest) -> DataTaskPublisher {
        DataTaskPublisher(request: request, session: self)
    }

    /// A publisher that performs one URL request per subscriber and sends its data and response.
    ///
    /// Each subscription starts its own data task at its first demand (never before), sends one
    /// `(data, response)` — whatever the HTTP status: a 404 or a 500 is a response, not a failure — then
    /// finishes; a transport error (no connection, a timeout) fails it with the `URLError`, and a task that ends
    /// with neither a response nor an error (a custom session may) fails it with `URLError(.unknown)`.
    /// Cancelling the subscription cancels the task, and nothing is sent after. The subscriber is called on the
    /// session's delegate queue. `request(.none)` traps, as Combine's does.
    public struct DataTaskPublisher: Publisher, Sendable {
        public typealias Output = (data: Data, response: URLResponse)
        public typealias Failure = URLError

        /// The request each subscription performs.
        public let request: URLRequest

        /// The session that performs it.
        public let session: URLSession

        /// A publisher that performs `request` with `session`.
        public init(request: URLRequest, session: URLSession) {
            self.request = request
            self.session = session
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscriber.receive(subscription: DataTaskSubscription(parent: self, downstream: subscriber))
        }
    }
}
