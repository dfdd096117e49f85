import { defineCheck } from '../define-check.js';
import { findUnmetRequirements } from '../find-unmet-requirements.js';

/** What `pip check` reports: base requirements missing or at the wrong version. */
export default defineCheck({
  id: 'requirement-unmet',
  severity: 'error',
  title: 'Requirement not met',
  run: (context) =>
    findUnmetRequirements(
      context,
      context.edges.filter((edge) => edge.extra === ''),
    ),
});
