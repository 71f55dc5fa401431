import Sluice
import SluiceTesting
import Testing

// The doc comments' examples in CombineLatest.swift, compiled and run; `.ci/check-snippets.sh`
// checks that each comment shows exactly the lines between the snippet's markers.

@Suite struct CombineLatestExamples {
    @Test func theFormIsCheckedAgainOnEveryChangeOfEitherField() {
        let name = PassthroughSubject<String, Never>()
        let email = PassthroughSubject<String, Never>()
        // snippet CombineLatestForm begin
        // The form is valid whenever both fields are, re-checked on every keystroke.
        let canSubmit = name.combineLatest(email) { !$0.isEmpty && $1.contains("@") }
        // snippet CombineLatestForm end
        let recorder = RecordingSubscriber<Bool, Never>()
        defer { recorder.cancel() }
        canSubmit.subscribe(recorder)
        name.send("Ada")
        #expect(recorder.values.isEmpty)   // no email yet
        email.send("ada@example.org")
        email.send("ada")
        name.send("")
        #expect(recorder.values == [true, false, false])
    }
}
