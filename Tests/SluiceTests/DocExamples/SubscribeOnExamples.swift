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

@Suite(.timeLimit(.minutes(12))) struct SubscribeOnExamples {
    /// Once stalled: `receive(on:)` appended the three rows in one main-actor turn, the loop's
    /// one-value demand took the first, and `CurrentValueSubject` (behind `@Published`) dropped
    /// the rest and unlike Combine's, did not deliver its current value at the next request.
    @Test
    @MainActor func theRowsArriveOnTheMainActorInOrder() async {
        let model = TableModel(expensiveRows: [1, 2, 3])
        for await rows in model.$rows.values where rows.count == 3 { break }
        #expect(model.rows == [1, 2, 3])
    }
}
