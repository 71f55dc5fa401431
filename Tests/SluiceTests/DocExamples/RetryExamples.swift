import Sluice
import SluiceTesting
import Testing

// The doc comments' examples in Retry.swift, compiled and run; `.ci/check-snippets.sh` checks
// that each comment shows exactly the lines between the snippet's markers.

@Suite struct RetryExamples {
    struct PageError: Error, Equatable {}

    final class Attempts {
        var count = 0
    }

    @Test func threeRetriesMeanFourAttempts() {
        let attempts = Attempts()
        func fetchPage(_ number: Int) -> some Publisher<String, PageError> {
            Deferred {
                attempts.count += 1
                return Fail<String, PageError>(error: PageError())
            }
        }
        // snippet RetryAttempts begin
        let page = fetchPage(1).retry(3)   // at most four attempts
        // snippet RetryAttempts end
        let recorder = RecordingSubscriber<String, PageError>()
        page.subscribe(recorder)
        #expect(attempts.count == 4)
        #expect(recorder.completion == .failure(PageError()))
    }
}
