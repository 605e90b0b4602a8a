/// A field of the sign-in form.
public enum SignInField: String, Sendable, Hashable, CaseIterable {
    /// The email field.
    case email
    /// The password field.
    case password
    /// The first name (registration only, optional).
    case firstName
    /// The last name (registration only, optional).
    case lastName
}
