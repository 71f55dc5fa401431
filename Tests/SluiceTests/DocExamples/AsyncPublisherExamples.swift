import Sluice
import Testing

// The doc comments' examples in AsyncPublisher.swift, compiled and run; `.ci/check-snippets.sh`
// checks that each comment shows exactly the lines between the snippet's markers.

@Suite(.timeLimit(.minutes(12))) struct AsyncPublisherExamples {
    struct ReadError: Error, Equatable {}

    @Test func aNeverFailingLoopNeedsNoTryAndAFailingOneCatchesItsOwnFailure() async {
        let lines = Producer<String, ReadError> { (sender) throws(ReadError) in
            await sender.send("first line")
            throw ReadError()
        }
        var shown: [String] = []
        var reported: [ReadError] = []
        func show(_ line: String) { shown.append(line) }
        func report(_ error: ReadError) { reported.append(error) }
        // snippet AsyncPublisherLoops begin
        var total = 0
        for await number in [1, 2, 3].publisher.values {   // no `try`: the Failure is Never
            total += number
        }
        do throws(ReadError) {
            for try await line in lines.values { show(line) }
        } catch {
            report(error)   // a ReadError: the publisher's own Failure
        }
        // snippet AsyncPublisherLoops end
        #expect(total == 6)
        #expect(shown == ["first line"])
        #expect(reported == [ReadError()])
    }
}
