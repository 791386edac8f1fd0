import { randomToken } from "../../store/state/secrets.js";
import { StateConflictError, type UserInfo } from "../../store/state/state-store.js";
import { type Refusal, type StateOutcome, invalid, refused, success } from "./outcome.js";
import type { StateContext } from "./state-context.js";

/** Names people type on the login page: letters, digits and . _ @ + - (an e-mail address fits). */
const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}$/;
/** Shortest password accepted; a generated one is 20 random characters. */
const MIN_PASSWORD = 8;
const GENERATED_PASSWORD = 20;

export interface NewAccount {
  readonly name: string;
  readonly groups: readonly string[];
  /**
   * The password the owner chose, asked for only once the name is valid (the CLI reads it from
   * standard input); without it one is generated.
   */
  readonly password?: () => Promise<string>;
}

/** The account added, and the password when it was generated (shown once, never stored in clear). */
export interface AddedAccount {
  readonly user: UserInfo;
  readonly generatedPassword?: string;
}

/** Add an account that signs in on the login page; a taken name is refused (remove it first). */
export async function addAccount(context: StateContext, account: NewAccount): Promise<StateOutcome<AddedAccount, Refusal<"name_taken">>> {
  const named = checkName(account.name);
  if (named !== undefined) return named;
  let chosen: string | undefined;
  if (account.password !== undefined) {
    chosen = await account.password();
    if (chosen.length < MIN_PASSWORD) return invalid([{ argument: "password", message: `must be at least ${MIN_PASSWORD} characters` }]);
  }
  const password = chosen ?? randomToken("", GENERATED_PASSWORD);
  try {
    const user = await (await context.stores.state()).addUser(account.name, password, account.groups);
    return success(chosen === undefined ? { user, generatedPassword: password } : { user });
  } catch (error) {
    if (error instanceof StateConflictError) return refused({ kind: "name_taken", message: error.message });
    throw error;
  }
}

/** Remove an account and every token issued to it; the lowercase name it had. */
export async function removeAccount(context: StateContext, name: string): Promise<StateOutcome<string, Refusal<"not_found">>> {
  const named = checkName(name);
  if (named !== undefined) return named;
  const key = name.toLowerCase();
  if (!(await (await context.stores.state()).removeUser(name))) return refused({ kind: "not_found", message: `no user "${key}"` });
  return success(key);
}

/** Every account, with its groups. */
export async function listAccounts(context: StateContext): Promise<StateOutcome<UserInfo[]>> {
  return success(await (await context.stores.state()).users());
}

function checkName(name: string): StateOutcome<never> | undefined {
  if (NAME_RE.test(name)) return undefined;
  return invalid([{ argument: "name", message: `must be 1 to 64 letters, digits or . _ @ + -, starting with a letter or digit; got ${JSON.stringify(name)}` }]);
}
