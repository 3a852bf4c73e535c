import {
  GENESIS_HASH,
  VisitEntrySchema,
  type JournalLine,
  type VisitEntry,
} from '../../shared/visit/journal-entry';

/** A photo kept with a visit, as its `photo-attached` entry names it. */
export type VisitPhotoFile = Extract<VisitEntry, { kind: 'photo-attached' }>['photo'];

/** The customer's acknowledgement as its entry records it, with the time of the entry. */
export type VisitAcknowledgement = Omit<Extract<VisitEntry, { kind: 'acknowledgement' }>, 'kind'> & {
  at: number;
};

/** A visit as its journal tells it: its fields, whether it is open, its photos and its chain's head. */
export interface VisitState {
  id: string;
  site?: string;
  customer?: string;
  technician?: string;
  title?: string;
  customerRepresentative?: string;
  notes?: string;
  arrivedAt: number;
  departedAt?: number;
  /** Opened by the first action rather than by the technician: to be named. */
  implicit: boolean;
  isOpen: boolean;
  /** Why nothing more can be recorded in it (a chain that does not verify); undefined when it takes entries. */
  readOnlyReason?: string;
  entryCount: number;
  /** SHA-256 of its last entry: the head of its chain. */
  headHash: string;
  photos: VisitPhotoFile[];
  /** The customer's latest acknowledgement of the work (an `acknowledgement` entry), with when it was recorded. */
  acknowledgement?: VisitAcknowledgement;
  profileId?: string;
  user?: string;
}

/** Folds one entry into a visit's state. */
export function fold(state: VisitState, line: JournalLine): void {
  state.entryCount = line.seq + 1;
  state.headHash = line.hash;
  const parsed = VisitEntrySchema.safeParse(line.entry);
  // An entry a later version wrote counts in the chain but changes no field this version knows.
  if (!parsed.success) return;
  const entry = parsed.data;
  switch (entry.kind) {
    case 'visit-opened':
      Object.assign(state, {
        implicit: entry.implicit,
        arrivedAt: entry.arrivedAt,
        isOpen: true,
        ...(entry.site !== undefined ? { site: entry.site } : {}),
        ...(entry.customer !== undefined ? { customer: entry.customer } : {}),
        ...(entry.technician !== undefined ? { technician: entry.technician } : {}),
        ...(entry.profileId !== undefined ? { profileId: entry.profileId } : {}),
        ...(entry.user !== undefined ? { user: entry.user } : {}),
      });
      return;
    case 'visit-closed':
      state.isOpen = false;
      state.departedAt = entry.departedAt;
      return;
    case 'fields-edited':
      Object.assign(state, entry.fields);
      return;
    case 'photo-attached':
      state.photos.push(entry.photo);
      return;
    case 'photo-removed':
      state.photos = state.photos.filter((photo) => photo.photoId !== entry.photoId);
      return;
    case 'acknowledgement': {
      const { kind: _kind, ...acknowledgement } = entry;
      state.acknowledgement = { ...acknowledgement, at: line.at };
      return;
    }
    default:
      return;
  }
}

/** A visit before its first entry. */
export function emptyState(id: string): VisitState {
  return {
    id,
    arrivedAt: 0,
    implicit: false,
    isOpen: false,
    entryCount: 0,
    headHash: GENESIS_HASH,
    photos: [],
  };
}
