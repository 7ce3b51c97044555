/** Random identifiers and secrets, from the OS CSPRNG. `count` makes a batch. */

export const batch = (count: number, make: () => string) => (count === 1 ? make() : Array.from({ length: count }, () => make()));
