import Sluice
import Testing

// The doc comments' examples in ClockScheduler.swift, compiled and run; `.ci/check-snippets.sh`
// checks that each comment shows exactly the lines between the snippet's markers.

private final class QueryModel: ObservableObject {
    @Published var query = ""
}

@MainActor private final class SearchScreen: ObservableObject {
    let model = QueryModel()
    @Published private(set) var title = ""
    private var cancellables = Set<AnyCancellable>()

    init() {
        // snippet ClockSchedulerMainActorDebounce begin
        // In a @MainActor model: the debounced query is delivered on the main actor.
        model.$query
            .debounce(for: .milliseconds(300), scheduler: .mainActor)
            .sink { [weak self] in self?.title = $0 }
            .store(in: &cancellables)
        // snippet ClockSchedulerMainActorDebounce end
    }
}

@Suite(.timeLimit(.minutes(12))) struct ClockSchedulerExamples {
    @Test @MainActor func onlyTheQueryTypedLastReachesTheTitle() async {
        let screen = SearchScreen()
        for query in ["s", "sw", "swift"] { screen.model.query = query }
        for await title in screen.$title.values where title == "swift" { break }
        #expect(screen.title == "swift")
    }
}
