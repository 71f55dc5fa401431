import Foundation
import Sluice
import SluiceFoundation
import SluiceTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the example server serves.
struct Forecast: Codable, Equatable, Sendable {
    var city: String
    var celsius: Int
}

/// The decoded data-task examples, each against a local server they start themselves.
enum DataTaskExamples {
    /// Starts a server on the loopback interface that serves one forecast at `/forecast`.
    static func startServer() throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer(routes: [
            "/forecast": .respond(
                .init(status: 200, contentType: "application/json", body: #"{"city":"Bergen","celsius":7}"#)
            ),
        ])
    }

    /// The forecast, through the hand-written publisher and subscriber.
    static func handWritten() async throws -> Forecast {
        let server = try startServer()
        defer { server.stop() }
        let subscriber = OneValueSubscriber<Forecast>()
        DecodedDataTaskPublisher<Forecast>(url: URL(string: server.url(for: "/forecast"))!, session: .shared)
            .subscribe(subscriber)
        return try await subscriber.value()
    }

    /// The same forecast with the library's operators, awaited with `firstValue()`.
    static func withOperators() async throws -> Forecast {
        let server = try startServer()
        defer { server.stop() }
        let forecast = try await URLSession.shared.dataTaskPublisher(for: URL(string: server.url(for: "/forecast"))!)
            .map(\.data)
            .mapError { $0 as any Error }
            .decode(type: Forecast.self, decoder: JSONDecoder())
            .firstValue()
        guard let forecast else { throw NoValue() }
        return forecast
    }
}
