import Dispatch
import Sluice
import Testing

// The doc comments' examples in SubscribeOn.swift, compiled and run; `.ci/check-snippets.sh`
// checks that each comment shows exactly the lines between the snippet's markers.

@MainActor private final class TableModel: ObservableObject {
    @Published private(set) var rows: [Int] = []
    private var cancellable: AnyCancellable?

    init(expensiveRows: [Int]) {
        // snippet SubscribeOnGlobalQueue begin
        // In a @MainActor model: the rows are made on a global queue and appended on the main actor.
        cancellable = expensiveRows.publisher
            .subscribe(on: DispatchQueue.global())
            .receive(on: .mainActor)
            .sink { [weak self] in self?.rows.append($0) }
        // snippet SubscribeOnGlobalQueue end
    }
}

@Suite(.timeLimit(.minutes(1))) struct SubscribeOnExamples {
    /// Disabled: the rows have been seen never to arrive (the test stalled until its time
    /// limit), run beside `ActorsAndThreadsSnippets.receiveOnMainActor` in one process and even
    /// alone in an exit test's process, while the same pipeline without `subscribe(on:)`
    /// (`ReceiveOnExamples`) does not stall. Not explained yet; enable again once it is.
    @Test(.disabled("stalls at times: subscribe(on: global) → receive(on: .mainActor) → main-actor sink"))
    @MainActor func theRowsArriveOnTheMainActorInOrder() async {
        let model = TableModel(expensiveRows: [1, 2, 3])
        for await rows in model.$rows.values where rows.count == 3 { break }
        #expect(model.rows == [1, 2, 3])
    }
}
