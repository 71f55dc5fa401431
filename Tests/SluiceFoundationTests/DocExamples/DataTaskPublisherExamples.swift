import Foundation
import Sluice
import SluiceFoundation
import SluiceTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The doc comments' examples in DataTaskPublisher.swift, compiled and run;
// `.ci/check-snippets.sh` checks that each comment shows exactly the lines between the
// snippet's markers.

private struct Forecast: Codable, Equatable {
    let city: String
    let celsius: Int
}

@MainActor private final class ForecastModel: ObservableObject {
    @Published private(set) var forecast: Forecast?
    private(set) var completion: Subscribers.Completion<any Error>?
    private var cancellable: AnyCancellable?

    func load(from url: URL) {
        // snippet DataTaskPublisherForecast begin
        // In a @MainActor model: the response arrives on a session thread, the forecast here.
        cancellable = URLSession.shared.dataTaskPublisher(for: url)
            .map(\.data)
            .decode(type: Forecast.self, decoder: JSONDecoder())
            .receive(on: .mainActor)
            .sink(receiveCompletion: { [weak self] in self?.completion = $0 },
                  receiveValue: { [weak self] in self?.forecast = $0 })
        // snippet DataTaskPublisherForecast end
    }
}

@Suite(.timeLimit(.minutes(12))) struct DataTaskPublisherExamples {
    @Test @MainActor func theDecodedForecastReachesTheModel() async throws {
        let server = try LoopbackHTTPServer(routes: [
            "/forecast": .respond(.init(status: 200, contentType: "application/json", body: #"{"city":"Oslo","celsius":4}"#))
        ])
        defer { server.stop() }
        let model = ForecastModel()
        model.load(from: try #require(URL(string: server.url(for: "/forecast"))))
        for await forecast in model.$forecast.values where forecast != nil { break }
        #expect(model.forecast == Forecast(city: "Oslo", celsius: 4))
    }
}
