import Sluice
import Testing

// The doc comments' examples in ReceiveOn.swift, compiled and run; `.ci/check-snippets.sh`
// checks that each comment shows exactly the lines between the snippet's markers.

@MainActor private final class SearchModel: ObservableObject {
    @Published private(set) var results: [String] = []
    private var cancellable: AnyCancellable?

    init(queries: some Publisher<String, Never>) {
        func search(_ query: String) -> [String] { ["\(query) 1", "\(query) 2"] }
        // snippet ReceiveOnMainActor begin
        // In a @MainActor model; `queries` may send from any thread.
        cancellable = queries
            .receive(on: .mainActor)
            .sink { [weak self] in self?.results = search($0) }
        // snippet ReceiveOnMainActor end
    }
}

@Suite(.timeLimit(.minutes(12))) struct ReceiveOnExamples {
    /// Runs in a process of its own (an exit test): its hop goes through the main actor's
    /// scheduler queue, which every test in this process shares, and run beside
    /// `ActorsAndThreadsSnippets.receiveOnMainActor` (whose example needs that queue idle) it
    /// made that test fail.
    @Test(.exitTest) func aValueSentOffTheMainActorUpdatesTheModelOnIt() async {
        await #expect(processExitsWith: .success) {
            let arrived = await Self.resultsArriveOnTheMainActor()
            precondition(arrived, "the results did not reach the model")
        }
    }

    @MainActor static func resultsArriveOnTheMainActor() async -> Bool {
        let queries = PassthroughSubject<String, Never>()
        let model = SearchModel(queries: queries)
        await Task.detached { queries.send("swift") }.value
        for await results in model.$results.values where !results.isEmpty { break }
        return model.results == ["swift 1", "swift 2"]
    }
}
