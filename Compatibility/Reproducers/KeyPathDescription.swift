// Reproducer for the `toolchain-defect` line of MapKeyPathTests.testMapKeyPathReflection
// (ExpectedFailures.txt). The test expects the description of a key path, which map(\.x)'s
// mirror shows as its child (Combine's child is the key path itself, and so is Sluice's), to
// contain "KeyPath", as Swift printed key paths before it gave them descriptions of their own
// (`\Root.member`). On Linux a key path to a computed property has no name to print at run
// time. Check with:
//     swiftc Compatibility/Reproducers/KeyPathDescription.swift -o /tmp/kp && /tmp/kp
// With Swift 6.3.1 on Linux it prints
//     \Int.<computed 0x… (Int)>
//     false
// so the test's check fails whatever Combine implementation it tests.
extension Int {
    var doubled: Int { self * 2 }
}

let description = String(describing: \Int.doubled)
print(description)
print(description.contains("KeyPath"))
