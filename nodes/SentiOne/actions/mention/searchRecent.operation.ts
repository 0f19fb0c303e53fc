import { searchOperation } from './search';

export const { description, execute } = searchOperation('recent');
