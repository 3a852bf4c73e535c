/**
 * The report language the technician chose beside Export: '' (the app's language at the time of the export) or a
 * language code. Kept for the app's run, so leaving the report view and coming back keeps the choice; not kept with
 * the visit or across a restart (the app's language is the default again then).
 */
export const reportLanguageChoice = $state({ value: '' });
