import Dispatch
import Sluice
import Testing

// The doc comments' examples in SubscribeOn.swift, compiled and run; `.ci/check-snippets.sh`
// checks that each comment shows exactly the lines between the snippet's markers.

@MainActor private final class TableModel {
    private(set) var rows: [Int] = []
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
    @Test @MainActor func theRowsArriveOnTheMainActorInOrder() async {
        let model = TableModel(expensiveRows: Array(1...100))
        await yieldUntil { model.rows.count == 100 }
        #expect(model.rows == Array(1...100))
    }
}
