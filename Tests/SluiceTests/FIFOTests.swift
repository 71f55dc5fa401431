import Sluice
import Testing

@Suite("FIFO: the ring-buffer queue behind subjects, Create and values")
struct FIFOTests {
    @Test("Elements come out in the order they went in, across growth and wrap-around")
    func keepsOrder() {
        var queue = FIFO<Int>()
        var expected: [Int] = []
        var next = 0
        // Interleave appends and pops so that the ring wraps around before and after growing.
        for round in 0..<50 {
            for _ in 0..<(round % 7 + 1) {
                queue.append(next)
                expected.append(next)
                next += 1
            }
            for _ in 0..<(round % 5) {
                #expect(queue.popFirst() == (expected.isEmpty ? nil : expected.removeFirst()))
            }
            #expect(queue.count == expected.count)
        }
        while let value = queue.popFirst() { #expect(value == expected.removeFirst()) }
        #expect(expected.isEmpty && queue.isEmpty)
        #expect(queue.popFirst() == nil)
    }

    @Test("Once grown to the most it held at once, a steady flow allocates no more storage")
    func stopsGrowing() {
        var queue = FIFO<Int>()
        for value in 0..<10 { queue.append(value) }
        let capacity = queue.capacity
        for value in 10..<100_000 {
            queue.append(value)
            #expect(queue.popFirst() == value - 10)
        }
        #expect(queue.capacity == capacity)
        #expect(capacity == 16)
    }

    @Test("A popped element is released at once, not kept in its slot")
    func releasesPoppedElements() {
        final class Token {}
        weak var weakToken: Token?
        var queue = FIFO<Token>()
        do {
            let token = Token()
            weakToken = token
            queue.append(token)
        }
        _ = queue.popFirst()
        #expect(weakToken == nil)
        queue.append(Token())
    }
}
