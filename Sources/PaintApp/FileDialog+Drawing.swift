import PaintCore

extension FileDialog {
    static let background = Color(r: 0xFA, g: 0xFA, b: 0xFB)
    static let sidebarFill = Color(r: 0xF0, g: 0xF1, b: 0xF3)

    /// The panel drawn, in the color editor's look: the title, the path bar, the places, the list
    /// (thumbnails from `thumbnail` where it has one for a path, else icons), the name field
    /// (with `preedit` at its cursor), the format, the note and the buttons. Also returns the
    /// field as drawn, for clicks and the input method. Call `layOutPath` first.
    func render(
        measure: TextMeasuring, preedit: Preedit?, now: Int, thumbnail: (String) -> PixelImage?
    ) -> (strip: ChromeStrip, field: TextFieldView) {
        let s = scale
        var p = ChromePainter(width: width, height: height, background: Self.background)
        var texts: [TextRun] = []
        p.strokeRoundedRect(0.5, 0.5, Double(width) - 1, Double(height) - 1, radius: 0, lineWidth: 1, Theme.border)
        texts.append(TextRun(text: purpose.title, x: pad, baseline: titleBaseline, color: Theme.text, bold: true))
        let hint =
            purpose.isSave
            ? "Tab completes · Alt+Up: folder above · Ctrl+H: hidden files"
            : "Type to filter · Tab completes · Backspace: folder above"
        let hintWidth = measure.width(of: hint, bold: false)
        let titleWidth = measure.width(of: purpose.title, bold: true)
        if width - pad - hintWidth > pad + titleWidth + s.px(24) {
            texts.append(
                TextRun(
                    text: hint, x: width - pad - hintWidth, baseline: titleBaseline, color: Theme.dimText, bold: false))
        }
        drawPathBar(&p, &texts, measure)
        drawPlaces(&p, &texts, measure)
        drawList(&p, &texts, measure, now: now, thumbnail: thumbnail)
        let view = drawFooter(&p, &texts, measure, preedit: preedit)
        return (ChromeStrip(pixels: p.image, texts: texts), view)
    }

    /// The button to the folder above, and the path's folders as buttons, the shown one chosen.
    private func drawPathBar(_ p: inout ChromePainter, _ texts: inout [TextRun], _ measure: TextMeasuring) {
        let s = scale
        let up = upButton
        PanelButtons.box(
            up, radius: 4, fill: hovered == .up ? Theme.hoverFill : .white,
            border: hovered == .up ? Theme.hoverBorder : Theme.border, painter: &p)
        let side = s.px(18)
        FileIcons.draw(
            .up,
            in: IntRect(x: up.x + (up.width - side) / 2, y: up.y + (up.height - side) / 2, width: side, height: side),
            painter: &p)
        let baseline = pathBar.y + s.px(19)
        if crumbsStartCut {
            texts.append(
                TextRun(text: "…", x: pathBar.x + s.px(2), baseline: baseline, color: Theme.dimText, bold: false))
        }
        for (i, crumb) in crumbs.enumerated() {
            let current = crumb.path == (showsRecent ? "" : folder)
            let r = crumb.rect
            if current {
                PanelButtons.box(r, radius: 4, fill: Theme.activeFill, border: Theme.activeBorder, painter: &p)
            } else if hovered == .crumb(i) {
                PanelButtons.box(r, radius: 4, fill: Theme.hoverFill, border: Theme.hoverBorder, painter: &p)
            }
            let title = FileFacts.fitted(crumb.title, width: r.width - s.px(16), bold: current, atEnd: true, measure)
            let w = measure.width(of: title, bold: current)
            texts.append(
                TextRun(
                    text: title, x: r.x + (r.width - w) / 2, baseline: baseline, color: Theme.text, bold: current))
            if i + 1 < crumbs.count {
                // A small chevron in the gap: "inside".
                let cx = Double(r.maxX) + s.d(2)
                let cy = Double(r.y) + Double(r.height) / 2
                p.strokePolyline(
                    [(cx - s.d(1), cy - s.d(3)), (cx + s.d(1.5), cy), (cx - s.d(1), cy + s.d(3))], width: s.d(1.2),
                    Theme.dimText)
            }
        }
    }

    /// The places, the one the dialog is in chosen, the one under the pointer lit.
    private func drawPlaces(_ p: inout ChromePainter, _ texts: inout [TextRun], _ measure: TextMeasuring) {
        let s = scale
        let box = sidebar
        guard showsPlaces else { return }
        p.fillRoundedRect(
            Double(box.x), Double(box.y), Double(box.width), Double(box.height), radius: s.d(6), Self.sidebarFill)
        let current = currentPlace
        for (i, place) in places.enumerated() {
            let r = placeRect(i)
            guard r.maxY <= box.maxY else { break }
            if let heading = place.heading {
                texts.append(
                    TextRun(
                        text: heading, x: r.x + s.px(10), baseline: r.y - s.px(8), color: Theme.dimText, bold: true))
            }
            let inner = (x: Double(r.x) + s.d(4) + 0.5, y: Double(r.y) + s.d(1) + 0.5)
            let (w, h) = (Double(r.width) - s.d(8) - 1, Double(r.height) - s.d(2) - 1)
            if i == current {
                p.fillRoundedRect(inner.x, inner.y, w, h, radius: s.d(4), Theme.activeFill)
            } else if hovered == .place(i) {
                p.fillRoundedRect(inner.x, inner.y, w, h, radius: s.d(4), Theme.hoverFill)
            }
            let side = s.px(18)
            FileIcons.draw(
                FileIcons.kind(of: place.kind),
                in: IntRect(x: r.x + s.px(12), y: r.y + (r.height - side) / 2, width: side, height: side), painter: &p)
            let textX = r.x + s.px(12) + side + s.px(9)
            let title = FileFacts.fitted(place.title, width: r.maxX - s.px(8) - textX, atEnd: true, measure)
            texts.append(
                TextRun(text: title, x: textX, baseline: r.y + s.px(20), color: Theme.text, bold: i == current))
        }
    }

    /// The list: column headings, the rows in view, the scrollbar, or why there is nothing.
    private func drawList(
        _ p: inout ChromePainter, _ texts: inout [TextRun], _ measure: TextMeasuring, now: Int,
        thumbnail: (String) -> PixelImage?
    ) {
        let s = scale
        let box = list
        p.fill(box, .white)
        p.strokeRoundedRect(
            Double(box.x) + 0.5, Double(box.y) + 0.5, Double(box.width) - 1, Double(box.height) - 1, radius: 0,
            lineWidth: 1, Theme.border)
        p.fill(IntRect(x: box.x + 1, y: box.y + 1, width: box.width - 2, height: headingHeight - 1), Self.background)
        p.fill(IntRect(x: box.x, y: box.y + headingHeight - 1, width: box.width, height: 1), Theme.separator)
        let columns = self.columns
        let nameX = rowsArea.x + s.px(10) + iconSide + s.px(10)
        let headingBaseline = box.y + s.px(18)
        func heading(_ text: String, _ x: Int) {
            texts.append(TextRun(text: text, x: x, baseline: headingBaseline, color: Theme.dimText, bold: false))
        }
        heading("Name", nameX)
        if let size = columns.size {
            heading("Size", size.maxX - s.px(12) - measure.width(of: "Size", bold: false))
        }
        heading("Dimensions", columns.dimensions.x)
        if let modified = columns.modified { heading("Modified", modified.x) }

        if rows.isEmpty {
            let empty =
                !filter.isEmpty
                ? "No picture or folder here matches “\(filter)”"
                : showsRecent ? "No recent pictures" : "No pictures or folders here"
            texts.append(
                TextRun(
                    text: empty, x: nameX, baseline: rowsArea.y + s.px(24), color: Theme.dimText, bold: false))
        }
        for index in visibleRange {
            drawRow(index, &p, &texts, measure, nameX: nameX, now: now, thumbnail: thumbnail)
        }
        if let bar = scrollbar {
            p.draw(ScrollbarView.render(bar, scale: s, active: isDragging), atX: bar.track.x, y: bar.track.y)
        }
    }

    private func drawRow(
        _ index: Int, _ p: inout ChromePainter, _ texts: inout [TextRun], _ measure: TextMeasuring, nameX: Int,
        now: Int, thumbnail: (String) -> PixelImage?
    ) {
        let s = scale
        let row = rows[index]
        let r = rowRect(index)
        let (bx, by) = (Double(r.x) + s.d(3) + 0.5, Double(r.y) + s.d(1) + 0.5)
        let (bw, bh) = (Double(r.width) - s.d(6) - 1, Double(r.height) - s.d(2) - 1)
        if index == selected {
            p.fillRoundedRect(bx, by, bw, bh, radius: s.d(4), Theme.activeFill)
            p.strokeRoundedRect(bx, by, bw, bh, radius: s.d(4), lineWidth: 1, Theme.activeBorder)
        } else if hovered == .row(index) {
            p.fillRoundedRect(bx, by, bw, bh, radius: s.d(4), Theme.hoverFill)
        }
        let icon = IntRect(x: r.x + s.px(10), y: r.y + (r.height - iconSide) / 2, width: iconSide, height: iconSide)
        if !row.isFolder, let thumb = thumbnail(row.path) {
            // The picture itself, centred in the icon's square, with a hairline edge.
            let x = icon.x + (icon.width - thumb.width) / 2
            let y = icon.y + (icon.height - thumb.height) / 2
            p.checkerboard(IntRect(x: x, y: y, width: thumb.width, height: thumb.height))
            p.draw(thumb, atX: x, y: y)
            p.strokeRoundedRect(
                Double(x) - 0.5, Double(y) - 0.5, Double(thumb.width) + 1, Double(thumb.height) + 1, radius: 0,
                lineWidth: 1, Theme.border)
        } else {
            FileIcons.draw(row.isFolder ? .folder : .picture, in: icon, painter: &p)
        }
        let baseline = r.y + (r.height + s.px(10)) / 2
        let columns = self.columns
        let nameRight = (columns.size?.x ?? columns.dimensions.x) - s.px(12)
        let name = FileFacts.fitted(row.name, width: nameRight - nameX, measure)
        texts.append(TextRun(text: name, x: nameX, baseline: baseline, color: Theme.text, bold: false))
        if let note = row.folderNote {
            let x = nameX + measure.width(of: name, bold: false) + s.px(10)
            let shown = FileFacts.fitted(note, width: nameRight - x, atEnd: true, measure)
            if nameRight - x > s.px(40) {
                texts.append(TextRun(text: shown, x: x, baseline: baseline, color: Theme.dimText, bold: false))
            }
        }
        guard !row.isFolder else { return }
        if let size = columns.size {
            let text = FileFacts.size(row.size)
            texts.append(
                TextRun(
                    text: text, x: size.maxX - s.px(12) - measure.width(of: text, bold: false), baseline: baseline,
                    color: Theme.dimText, bold: false))
        }
        let dimensions = header(of: row).map { "\($0.width) × \($0.height)" } ?? "—"
        texts.append(
            TextRun(text: dimensions, x: columns.dimensions.x, baseline: baseline, color: Theme.text, bold: false))
        if let modified = columns.modified {
            texts.append(
                TextRun(
                    text: FileFacts.date(row.modified, now: now), x: modified.x, baseline: baseline,
                    color: Theme.dimText, bold: false))
        }
    }

    /// The name field with its label, the format (Save as), the note and the buttons.
    private func drawFooter(
        _ p: inout ChromePainter, _ texts: inout [TextRun], _ measure: TextMeasuring, preedit: Preedit?
    ) -> TextFieldView {
        let s = scale
        let labelWidth = measure.width(of: fieldLabel, bold: false)
        let box = fieldBox(labelWidth: labelWidth)
        let baseline = box.y + s.px(19)
        texts.append(TextRun(text: fieldLabel, x: pad, baseline: baseline, color: Theme.text, bold: false))
        let view = TextFieldView.draw(
            field, preedit: preedit, frame: IntRect(x: box.x, y: box.y, width: box.width - 1, height: box.height - 1),
            baseline: baseline, painter: &p, texts: &texts, measure: measure)
        if field.text.isEmpty && preedit == nil {
            let placeholder =
                purpose == .background ? "A picture, #rrggbb or transparent" : "Type to filter, or a path"
            texts.append(
                TextRun(text: placeholder, x: box.x + s.px(8), baseline: baseline, color: Theme.dimText, bold: false))
        }
        if purpose.isSave {
            for f in Self.savedFormats {
                PanelButtons.button(
                    formatButton(f), f.name, isDefault: f == format, scale: s, painter: &p, texts: &texts,
                    measure: measure)
            }
        }
        var buttons: [(IntRect, String, Bool)] = [(cancelButton, "Cancel", false), (acceptButton, acceptLabel, true)]
        if purpose == .background { buttons.insert((transparentButton, "Transparent", false), at: 0) }
        for (rect, label, isDefault) in buttons {
            PanelButtons.button(
                rect, label, isDefault: isDefault, scale: s, painter: &p, texts: &texts, measure: measure)
        }
        let noteRight = (purpose == .background ? transparentButton.x : cancelButton.x) - s.px(12)
        var noteX = pad
        var text = note ?? summary
        var color = noteIsProblem ? Theme.errorText : Theme.dimText
        if purpose.isSave {
            // Taking the history along is a choice made here; ticked, the note says what that
            // gives away.
            let box = historyBox
            PanelButtons.checkBox(
                box, Self.historyLabel, checked: withHistory, scale: s, painter: &p, texts: &texts)
            noteX = box.maxX + s.px(16)
            if withHistory && note == nil {
                text = "Anyone who opens it can undo what was painted over"
                color = Theme.cautionText
            }
        }
        texts.append(
            TextRun(
                text: FileFacts.fitted(text, width: noteRight - noteX, atEnd: true, measure), x: noteX,
                baseline: noteBaseline, color: color, bold: false))
        return view
    }

    /// The accept button's word: "Open" while a folder is chosen in the list (Enter enters it).
    var acceptLabel: String {
        if let i = selected, rows.indices.contains(i), rows[i].isFolder, listActive || !purpose.isSave {
            return "Open"
        }
        return purpose.acceptLabel
    }

    /// What the list holds, under it: "3 folders, 12 pictures", "2 of 15 match".
    var summary: String {
        let pictures = allRows.filter { !$0.isFolder }.count
        let folders = allRows.count - pictures
        if !filter.isEmpty { return "\(rows.count) of \(allRows.count) match “\(filter)”" }
        if showsRecent { return pictures == 1 ? "1 recent picture" : "\(pictures) recent pictures" }
        func count(_ n: Int, _ one: String, _ many: String) -> String { n == 1 ? "1 \(one)" : "\(n) \(many)" }
        return count(folders, "folder", "folders") + ", " + count(pictures, "picture", "pictures")
    }
}
