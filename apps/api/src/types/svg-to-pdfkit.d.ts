declare module 'svg-to-pdfkit' {
  /** Draws an SVG document onto a pdfkit document (the package ships no types). */
  export default function SVGtoPDF(
    doc: PDFKit.PDFDocument,
    svg: string,
    x: number,
    y: number,
    options?: {
      width?: number;
      height?: number;
      preserveAspectRatio?: string;
      /** What an `<image href>` is opened as (pdfkit's openImage: a path, a buffer or a data URL). */
      imageCallback?: (href: string) => string;
      /** What it does with a warning (an image it could not open, an element it ignores). */
      warningCallback?: (message: string) => void;
    },
  ): void;
}
