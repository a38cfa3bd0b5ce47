import type { ReportContent, ReportFormat } from './data.js';
import { fileNameOf } from './present.js';
import { renderCsv } from './render-csv.js';
import { renderHtml } from './render-html.js';
import { renderPdf } from './render-pdf.js';

export interface RenderedReport {
  format: ReportFormat;
  fileName: string;
  contentType: string;
  body: Buffer;
}

export async function renderReport(content: ReportContent, format: ReportFormat): Promise<RenderedReport> {
  switch (format) {
    case 'pdf':
      return {
        format,
        fileName: fileNameOf(content, 'pdf'),
        contentType: 'application/pdf',
        body: await renderPdf(content),
      };
    case 'csv':
      return {
        format,
        fileName: fileNameOf(content, 'csv'),
        contentType: 'text/csv; charset=utf-8',
        body: Buffer.from(renderCsv(content)),
      };
    case 'html':
      return {
        format,
        fileName: fileNameOf(content, 'html'),
        contentType: 'text/html; charset=utf-8',
        body: Buffer.from(renderHtml(content)),
      };
  }
}
