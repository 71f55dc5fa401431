import Sluice
import Testing

// The doc comments' examples in ReceiveOn.swift, compiled and run; `.ci/check-snippets.sh`
// checks that each comment shows exactly the lines between the snippet's markers.

@MainActor private final class SearchModel {
    private(set) var results: [String] = []
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

@Suite(.timeLimit(.minutes(1))) struct ReceiveOnExamples {
    @Test @MainActor func aValueSentOffTheMainActorUpdatesTheModelOnIt() async {
        let queries = PassthroughSubject<String, Never>()
        let model = SearchModel(queries: queries)
        await Task.detached { queries.send("swift") }.value
        await yieldUntil { !model.results.isEmpty }
        #expect(model.results == ["swift 1", "swift 2"])
    }
}
