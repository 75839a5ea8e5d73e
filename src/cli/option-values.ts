// Option values the services would refuse for their form, checked with the services' own rules before
// anything is opened: a malformed value is a usage error (exit code 2) and changes nothing. What only
// the database can tell (an account that does not exist, an e-mail already taken) stays a failed
// command (exit code 1).
import { parseTargetUrl } from '../analysis/target-url.ts';
import { checkEmail } from '../services/account.service.ts';
import { ValidationError } from '../services/errors.ts';
import { parseWebhookEvents } from '../services/webhook-events.ts';
import { requireString, UsageError, type ParsedArgs } from './command.ts';

/** The services name their fields ("The url must ..."); the command line names its options. */
function inOptionWords(message: string, option: string): string {
  return message.replace(new RegExp(`^The ${option}\\b`), `--${option}`);
}

/** Runs a service's check of one option's value; what it refuses becomes a usage error. */
function checked<T>(option: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof ValidationError) throw new UsageError(inOptionWords(error.message, option));
    throw error;
  }
}

/** --email, required: as given (the service normalises it again). */
export function emailOption(args: ParsedArgs): string {
  const email = requireString(args, 'email');
  checked('email', () => checkEmail(email));
  return email;
}

/** --email where it only narrows what is shown: undefined when not given. */
export function optionalEmailOption(args: ParsedArgs): string | undefined {
  return args.values.email === undefined ? undefined : emailOption(args);
}

/** A webhook's --url: an absolute http(s) URL (whether it may receive webhooks is the service's to say). */
export function webhookUrlOption(args: ParsedArgs): string {
  const url = requireString(args, 'url');
  const parsed = parseTargetUrl(url);
  if (!parsed.ok) throw new UsageError(inOptionWords(parsed.message, 'url'));
  return url;
}

/** --events: comma-separated event names; undefined (every event) when not given. */
export function eventsOption(args: ParsedArgs): string | undefined {
  const events = args.values.events;
  if (typeof events !== 'string') return undefined;
  checked('events', () => parseWebhookEvents(events));
  return events;
}
