import { nobody, type Person } from "../../src/core/person/person.js";

/**
 * A person at hand who answers the questions given, and no to every other (a test's person
 * answers only what the test is about).
 */
export function personWho(answers: Partial<Omit<Person, "absent">>): Person {
  return { ...nobody("the test answers nothing else"), absent: undefined, ...answers };
}
