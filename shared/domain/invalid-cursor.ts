/** A list cursor that was not issued for this account, list and filters (tampered or foreign). */
export class InvalidCursorError extends Error {
  constructor() {
    super('The cursor is not valid for this list; start again without it.');
    this.name = 'InvalidCursorError';
  }
}
