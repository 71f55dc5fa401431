import Sluice
import SluiceTesting
import Testing

// The doc comments' examples in Buffer.swift, compiled and run; `.ci/check-snippets.sh` checks
// that each comment shows exactly the lines between the snippet's markers.

@Suite(.timeLimit(.minutes(12))) struct BufferExamples {
    @Test func keepFullAsksForTheWholeBufferAheadOfAConsumerOfOne() async throws {
        let publisher = ControllablePublisher<Int, Never>()
        defer { publisher.detachAll() }
        let pages = UncheckedBox(publisher)
        let consumer = Task {
            let pages = pages.value
            var rendered: [Int] = []
            func render(_ page: Int) async { rendered.append(page) }
            // snippet BufferPrefetch begin
            // The pages are fetched up to 8 ahead of the consumer, which asks for one at a time.
            for await page in pages.buffer(size: 8, prefetch: .keepFull, whenFull: .dropNewest).values {
                await render(page)
            }
            // snippet BufferPrefetch end
            return rendered
        }
        let subscription = try #require(await publisher.firstSubscription())
        await subscription.waitForCalls { !$0.isEmpty }
        #expect(subscription.requests == [.max(8)])
        for page in 1...3 { _ = subscription.send(page) }
        subscription.send(completion: .finished)
        #expect(await consumer.value == [1, 2, 3])
    }
}
