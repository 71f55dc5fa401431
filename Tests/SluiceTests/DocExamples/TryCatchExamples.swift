import Sluice
import SluiceTesting
import Testing

// The doc comments' examples in TryCatch.swift, compiled and run; `.ci/check-snippets.sh`
// checks that each comment shows exactly the lines between the snippet's markers.

@Suite struct TryCatchExamples {
    struct FetchError: Error {
        var isRetryable: Bool
    }

    @Test(arguments: [true, false]) func aRetryableFailureMovesToTheMirrorAnyOtherFails(retryable: Bool) {
        func primary() -> Fail<String, FetchError> { Fail(error: FetchError(isRetryable: retryable)) }
        func mirror() -> Just<String> { Just("from the mirror") }
        // snippet TryCatchFallback begin
        let data = primary().tryCatch { error in
            guard error.isRetryable else { throw error }
            return mirror()
        }
        // snippet TryCatchFallback end
        let recorder = RecordingSubscriber<String, any Error>()
        data.subscribe(recorder)
        #expect(recorder.values == (retryable ? ["from the mirror"] : []))
        switch recorder.completion {
        case .finished?: #expect(retryable)
        case .failure(let error)?: #expect((error as? FetchError)?.isRetryable == false)
        case nil: Issue.record("no completion")
        }
    }
}
