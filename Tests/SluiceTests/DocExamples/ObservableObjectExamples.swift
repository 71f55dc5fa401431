import Sluice
import Testing

// The examples in the doc comments of Publishers/Published/ObservableObject.swift, compiled and run.

@Suite struct ObservableObjectExamples {
    @Test func objectWillChangeEmitsBeforeTheChange() {
        // snippet ObservableObjectWillChange begin
        final class Contact: ObservableObject {
            @Published var name: String
            @Published var age: Int
            init(name: String, age: Int) { self.name = name; self.age = age }
        }

        let john = Contact(name: "John Appleseed", age: 24)
        var agesBeforeChange: [Int] = []
        let cancellable = john.objectWillChange.sink { _ in agesBeforeChange.append(john.age) }
        john.age += 1                   // agesBeforeChange == [24]: it emits before the change
        #expect(agesBeforeChange == [24])
        #expect(john.age == 25)
        cancellable.cancel()
        // snippet ObservableObjectWillChange end
    }
}
