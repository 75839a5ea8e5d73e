// A printer in place of Chromium for the PDF routes' tests: the services ask for a printer on each
// request, so this one, put in, records every page it is given and answers the same small PDF.
import type { FastifyInstance } from 'fastify';
import type { PdfOptions } from '../../src/render/print-pdf.ts';

export const FAKE_PDF = Buffer.from('%PDF-1.7\n% stand-in\n');

/** Installs the stand-in on the app's services; returns what it printed, in order. */
export function installStandInPrinter(app: FastifyInstance): Array<{ html: string; options: PdfOptions }> {
  const printed: Array<{ html: string; options: PdfOptions }> = [];
  Object.assign(app.services.rendering, {
    pdf: async (page: string, options: PdfOptions) => {
      printed.push({ html: page, options });
      return FAKE_PDF;
    },
  });
  return printed;
}
