// list_checks: the check catalogue, as GET /api/v1/checks answers it; the same on every server.
import { checkCatalogue } from '../schemas/check-catalogue.ts';
import type { ToolHandlers } from './tools.ts';

export const listChecks: ToolHandlers['list_checks'] = async () => ({ content: { data: checkCatalogue() } });
