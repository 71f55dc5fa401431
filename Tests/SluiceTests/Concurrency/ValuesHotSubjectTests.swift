import Sluice
import SluiceTesting
import Testing

/// A `PassthroughSubject` (a hot source: it drops what nobody demanded) consumed through
/// `values` and its opt-in variants, while the loop body is busy.
@Suite(.timeLimit(.minutes(12))) struct ValuesHotSubjectTests {
    /// Loops over `sequence(watch)` in a task. The test sends 1 once the loop has demanded a
    /// value; the loop body, handling 1, blocks on a gate while the test sends 2, 3 and 4 and
    /// finishes the subject; then the body goes on. Returns what the loop received.
    private func valuesSentWhileTheBodyIsBlocked(
        through sequence: @escaping @Sendable (DemandWatch<PassthroughSubject<Int, Never>>)
            -> AsyncPublisher<DemandWatch<PassthroughSubject<Int, Never>>>
    ) async -> [Int] {
        let subject = PassthroughSubject<Int, Never>()
        let watch = DemandWatch(subject)
        let inBody = Gate()
        let bodyMayGoOn = Gate()
        let loop = Task {
            var received: [Int] = []
            for await value in sequence(watch) {
                received.append(value)
                if value == 1 {
                    inBody.open()
                    await bodyMayGoOn.wait()
                }
            }
            return received
        }
        await watch.waitForRequested(.max(1))
        subject.send(1)
        await inBody.wait()
        for value in 2...4 { subject.send(value) }
        subject.send(completion: .finished)
        bodyMayGoOn.open()
        // A time limit that cancels the test ends the loop too, so a lost value fails the test instead of
        // leaving the loop waiting for ever.
        return await withTaskCancellationHandler { await loop.value } onCancel: { loop.cancel() }
    }

    @Test("values: what a subject sends while the loop body runs is lost (Combine's contract)")
    func plainValuesLoseWhatIsSentDuringTheBody() async {
        #expect(await valuesSentWhileTheBodyIsBlocked { $0.values } == [1])
    }

    @Test("values(prefetch: 2): two values requested ahead are kept, the third is lost")
    func prefetchKeepsUpToItsCount() async {
        #expect(await valuesSentWhileTheBodyIsBlocked { $0.values(prefetch: 2) } == [1, 2, 3])
    }

    @Test("values(bufferingPolicy: .unbounded): everything sent during the body is kept")
    func unboundedBufferingKeepsEverything() async {
        #expect(await valuesSentWhileTheBodyIsBlocked { $0.values(bufferingPolicy: .unbounded) } == [1, 2, 3, 4])
    }

    @Test("values(bufferingPolicy: .bufferingOldest(2)): the first two sent during the body are kept")
    func bufferingOldestKeepsTheFirstN() async {
        #expect(await valuesSentWhileTheBodyIsBlocked { $0.values(bufferingPolicy: .bufferingOldest(2)) } == [1, 2, 3])
    }

    @Test("values(bufferingPolicy: .bufferingNewest(2)): the last two sent during the body are kept")
    func bufferingNewestKeepsTheLastN() async {
        #expect(await valuesSentWhileTheBodyIsBlocked { $0.values(bufferingPolicy: .bufferingNewest(2)) } == [1, 3, 4])
    }
}
