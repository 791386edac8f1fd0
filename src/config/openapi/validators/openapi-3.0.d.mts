// Generated with the validator beside it (npm run generate:validators). Do not edit.
import type { ValidateFunction } from "ajv";

declare const validate: ValidateFunction;
export default validate;
