import Testing
import Sluice

@Suite("firstValue's two nils: an empty publisher or a cancelled task, told apart by Task.isCancelled", .timeLimit(.minutes(12)))
struct FirstValueNilTests {
    @Test("an empty publisher: nil, and the task is not cancelled")
    func emptyPublisher() async {
        let first = await Empty<Int, Never>().firstValue()
        #expect(first == nil)
        #expect(!Task.isCancelled)
    }

    @Test("a cancelled task waiting on a publisher that never sends: nil, and Task.isCancelled is true")
    func cancelledTask() async {
        let waiting = Task { () -> (Int?, Bool) in
            let first = await Empty<Int, Never>(completeImmediately: false).firstValue()
            return (first, Task.isCancelled)
        }
        waiting.cancel()
        let (first, cancelled) = await waiting.value
        #expect(first == nil)
        #expect(cancelled)
    }
}
