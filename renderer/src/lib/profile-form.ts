import { readInputIssues } from '../../../electron/shared/ipc/error-details';
import { t } from './i18n';
import type { IpcErrorShape, Profile, ProfileDraft } from './wire-types';

/** The add/edit profile form's fields, as typed (all text). */
export interface ProfileFields {
  name: string;
  baseUrl: string;
  username: string;
  relayHost: string;
  relayPort: string;
  relayUsername: string;
  /** A new relay password to store; empty keeps what is stored (the form never shows the stored one). */
  relayPassword: string;
  /** The user asked to forget the stored relay password. */
  clearRelayPassword: boolean;
}

/** A message per field that fails; an empty object means the fields are valid. */
export type ProfileFieldErrors = Partial<Record<Exclude<keyof ProfileFields, 'clearRelayPassword'>, string>>;

/** Longest relay password the form accepts (main's limit too). */
export const MAX_RELAY_PASSWORD_LENGTH = 1024;

/** Longest profile name the form accepts. */
export const MAX_PROFILE_NAME_LENGTH = 80;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
const HOST_NAME = /^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$/;

/** The form's fields for a profile (empty fields for a new one). */
export function readProfileFields(profile: Profile | null): ProfileFields {
  return {
    name: profile?.name ?? '',
    baseUrl: profile?.baseUrl ?? 'https://',
    username: profile?.username ?? '',
    relayHost: profile?.relay?.host ?? '',
    relayPort: profile?.relay ? String(profile.relay.port) : '',
    relayUsername: profile?.relay?.username ?? '',
    relayPassword: '',
    clearRelayPassword: false,
  };
}

function checkBaseUrl(text: string): string | null {
  if (text.trim() === '' || text.trim() === 'https://') return t('app:profileEnterAddress');
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return t('app:profileNotAddress');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return t('app:profileAddressScheme');
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) return t('app:profileHttpsOnly');
  if (url.username || url.password) return t('app:profileAddressCredentials');
  if (url.search || url.hash) return t('app:profileAddressQuery');
  return null;
}

/**
 * Checks the fields the way the user reads them and, when they pass, builds what `profiles:save` takes (keeping
 * the edited profile's id and the fields the form does not show). Relay settings are all-or-nothing. The relay
 * password goes in the draft only when typed (replace) or cleared (null); otherwise main keeps what it stored.
 */
export function validateProfileFields(
  fields: ProfileFields,
  original: Profile | null,
): { errors: ProfileFieldErrors; draft: ProfileDraft | null } {
  const errors: ProfileFieldErrors = {};
  const name = fields.name.trim();
  if (name === '') errors.name = t('app:profileEnterName');
  else if (name.length > MAX_PROFILE_NAME_LENGTH)
    errors.name = t('app:profileNameTooLong', { count: MAX_PROFILE_NAME_LENGTH });

  const baseUrlError = checkBaseUrl(fields.baseUrl);
  if (baseUrlError) errors.baseUrl = baseUrlError;

  const username = fields.username.trim();
  if (/\s/.test(username)) errors.username = t('app:profileUserNameSpaces');

  const relayHost = fields.relayHost.trim();
  const relayPort = fields.relayPort.trim();
  const relayUsername = fields.relayUsername.trim();
  const hasRelay = relayHost !== '' || relayPort !== '' || relayUsername !== '';
  let port = 22;
  if (hasRelay) {
    if (relayHost === '') errors.relayHost = t('app:profileEnterRelayHost');
    else if (!HOST_NAME.test(relayHost)) errors.relayHost = t('app:profileRelayHostOnly');
    if (relayPort !== '') {
      port = Number(relayPort);
      if (!/^\d+$/.test(relayPort) || port < 1 || port > 65_535) errors.relayPort = t('app:profileRelayPort');
    }
    if (relayUsername === '') errors.relayUsername = t('app:profileEnterRelayUserName');
    else if (/\s/.test(relayUsername)) errors.relayUsername = t('app:profileUserNameSpaces');
  }
  // Passwords are taken as typed: spaces may be part of them.
  const relayPassword = fields.relayPassword;
  if (relayPassword !== '' && !hasRelay) errors.relayPassword = t('app:profileRelayPasswordAlone');
  else if (relayPassword.length > MAX_RELAY_PASSWORD_LENGTH)
    errors.relayPassword = t('app:profilePasswordTooLong', { count: MAX_RELAY_PASSWORD_LENGTH });

  if (Object.keys(errors).length > 0) return { errors, draft: null };

  const {
    id: _id,
    name: _name,
    baseUrl: _baseUrl,
    username: _username,
    relay,
    relayPasswordStored: _stored,
    ...kept
  } = original ?? {
    isDemo: false,
  };
  const draft: ProfileDraft = {
    ...kept,
    ...(original ? { id: original.id } : {}),
    name,
    baseUrl: new URL(fields.baseUrl.trim()).toString().replace(/\/$/, ''),
    ...(username ? { username } : {}),
    ...(hasRelay
      ? {
          relay: {
            host: relayHost,
            port,
            username: relayUsername,
            ...(relay?.portRange ? { portRange: relay.portRange } : {}),
          },
        }
      : {}),
    ...(relayPassword !== ''
      ? { relayPassword }
      : fields.clearRelayPassword && original?.relayPasswordStored
        ? { relayPassword: null }
        : {}),
  };
  return { errors, draft };
}

const FIELD_OF_PATH: Record<string, keyof ProfileFieldErrors> = {
  name: 'name',
  baseUrl: 'baseUrl',
  username: 'username',
  'relay.host': 'relayHost',
  'relay.port': 'relayPort',
  'relay.username': 'relayUsername',
  relayPassword: 'relayPassword',
};

/** Places main's INVALID_INPUT issues next to the fields they name; other issues go under `form`. */
export function mapServerIssues(error: IpcErrorShape): { fields: ProfileFieldErrors; form: string | null } {
  const fields: ProfileFieldErrors = {};
  const other: string[] = [];
  const issues = readInputIssues(error.details);
  for (const issue of issues) {
    const path = issue.path.replace(/^input\./, '');
    const message = issue.message;
    const field = FIELD_OF_PATH[path];
    if (field) fields[field] ??= message;
    else other.push(path ? `${path}: ${message}` : message);
  }
  if (issues.length === 0) other.push(error.message);
  return { fields, form: other.length > 0 ? other.join(' ') : null };
}
